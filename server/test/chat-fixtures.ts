/** OpenAI-shaped chat data that several adaptor tests send, written once. */

/** A `get_weather(city)` function tool, the tool most adaptor tests offer. */
export const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/** The same tool with a description, for vendors whose request carries one. */
export const describedWeatherTool = {
  type: 'function' as const,
  function: { ...weatherTool.function, description: '天气' },
};

/** A system line and a Chinese greeting: the shortest chat the China vendors' tests send. */
export const terseGreeting = [
  { role: 'system', content: 'terse' },
  { role: 'user', content: '你好' },
];

/** A question, the assistant's `get_weather` call `c1` and the tool's answer `晴`: one finished tool turn. */
export const weatherToolTurn = (question: string) => [
  { role: 'user', content: question },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: '晴' },
];

/** One OpenAI stream event carrying a content delta, as the upstream writes it. */
export const contentChunk = (content: string) =>
  `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;

/** OpenAI's usage-only event that ends a stream (the answer's tail begins there). */
export const usageEvent =
  'data: {"id":"c","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}\n\n';
