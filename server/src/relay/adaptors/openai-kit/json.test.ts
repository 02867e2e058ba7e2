import { describe, expect, it } from 'vitest';
import { eventTypeOf } from './json.js';

describe('eventTypeOf', () => {
  it('reads the type where vendors write it, with or without whitespace', () => {
    expect(eventTypeOf('{"type":"response.output_text.delta","delta":"hi"}')).toBe('response.output_text.delta');
    expect(eventTypeOf(' { "type" : "message_start", "message": {}}')).toBe('message_start');
    expect(eventTypeOf('{\n\t"type":\r\n"ping"}')).toBe('ping');
  });

  it('parses the event when the type is not its first key, or its name has an escape', () => {
    expect(eventTypeOf('{"sequence_number":3,"type":"response.completed"}')).toBe('response.completed');
    expect(eventTypeOf('{"type":"a\\"b","x":1}')).toBe('a"b');
    expect(eventTypeOf('{"type":"error","message":"a \\"quoted\\" word"}')).toBe('error');
  });

  it('has no type for what is not an object with a string type', () => {
    expect(eventTypeOf('[DONE]')).toBeUndefined();
    expect(eventTypeOf('{"type":""}')).toBe('');
    expect(eventTypeOf('{"type":3}')).toBeUndefined();
    expect(eventTypeOf('{"type":"cut')).toBeUndefined();
    expect(eventTypeOf('')).toBeUndefined();
  });
});
