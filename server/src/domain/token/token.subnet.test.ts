import { describe, expect, test } from 'vitest';
import { findInvalidSubnet, isAddressInSubnets } from './token.subnet.js';

describe('token subnets', () => {
  test('accepts only address/prefix ranges, as Go net.ParseCIDR does', () => {
    expect(findInvalidSubnet('')).toBeNull();
    expect(findInvalidSubnet('10.0.0.0/8, 192.168.1.0/24,2001:db8::/32,0.0.0.0/0')).toBeNull();
    expect(findInvalidSubnet('10.0.0.1')).toBe('10.0.0.1');
    expect(findInvalidSubnet('10.0.0.0/33')).toBe('10.0.0.0/33');
    expect(findInvalidSubnet('10.0.0.0/8,::/129')).toBe('::/129');
    expect(findInvalidSubnet('10.0.0/8')).toBe('10.0.0/8');
    expect(findInvalidSubnet('example.com/8')).toBe('example.com/8');
    expect(findInvalidSubnet("10.0.0.0/8' or 1=1")).toBe("10.0.0.0/8' or 1=1");
  });

  test('matches client addresses, IPv4-mapped IPv6 included; an empty list allows all', () => {
    expect(isAddressInSubnets('203.0.113.7', '')).toBe(true);
    expect(isAddressInSubnets('203.0.113.7', null)).toBe(true);
    expect(isAddressInSubnets('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(isAddressInSubnets('::ffff:10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(isAddressInSubnets('11.1.2.3', '10.0.0.0/8, 192.168.0.0/16')).toBe(false);
    expect(isAddressInSubnets('192.168.5.5', '10.0.0.0/8, 192.168.0.0/16')).toBe(true);
    expect(isAddressInSubnets('2001:db8::1', '2001:db8::/32')).toBe(true);
    expect(isAddressInSubnets('2001:db9::1', '2001:db8::/32')).toBe(false);
    expect(isAddressInSubnets('not an ip', '10.0.0.0/8')).toBe(false);
  });
});
