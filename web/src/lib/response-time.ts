/** Colour names used for channel response times (antd Tag preset colours, 'olive' mapped to lime). */
export type ResponseTimeColor = 'default' | 'green' | 'lime' | 'gold' | 'red';

const ResponseTimeThresholdMs = { fast: 1000, fair: 3000, slow: 5000 } as const;

/**
 * Colour of a channel response time in milliseconds: 0 untested (grey), ≤1 s green, ≤3 s olive,
 * ≤5 s yellow, above red.
 */
export function responseTimeColor(milliseconds: number): ResponseTimeColor {
  if (!milliseconds) return 'default';
  if (milliseconds <= ResponseTimeThresholdMs.fast) return 'green';
  if (milliseconds <= ResponseTimeThresholdMs.fair) return 'lime';
  if (milliseconds <= ResponseTimeThresholdMs.slow) return 'gold';
  return 'red';
}

/** Response time shown in seconds with 2 decimals. */
export const formatResponseTime = (milliseconds: number): string => (milliseconds / 1000).toFixed(2);
