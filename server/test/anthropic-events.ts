/**
 * Parses what the Anthropic front writes (`event: <type>` and `data: <json>` per block) into the events a
 * client reads.
 */
export function parseAnthropicEvents(text: string) {
  return text
    .trim()
    .split('\n\n')
    .map((block) => {
      const [eventLine = '', dataLine = ''] = block.split('\n');
      return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) };
    });
}
