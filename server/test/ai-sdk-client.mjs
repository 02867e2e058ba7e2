// The Vercel AI SDK as a client process of its own: `node test/ai-sdk-client.mjs '<job JSON>'` runs one call with
// the SDK's default OpenAI model (`openai(model)`: the Responses API) and prints what the SDK made of the answer
// as JSON. A process of its own because the server suite resolves packages with the `source` condition, under
// which the SDK's eventsource-parser names TypeScript that Node cannot load.
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';

const job = JSON.parse(process.argv[2]);
const model = createOpenAI({ apiKey: job.apiKey, baseURL: job.baseURL })(job.model);

const weather = tool({
  description: 'The current temperature of a city',
  inputSchema: jsonSchema({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  }),
  execute: async ({ city }) => `${city}: 18°C`,
});

let result;
if (job.mode === 'stream') {
  const stream = streamText({ model, prompt: job.prompt });
  const parts = [];
  for await (const part of stream.textStream) parts.push(part);
  result = { parts, text: parts.join(''), usage: await stream.usage };
} else {
  const answer = await generateText({
    model,
    prompt: job.prompt,
    ...(job.mode === 'tool' ? { tools: { weather }, stopWhen: stepCountIs(3) } : {}),
  });
  result = {
    text: answer.text,
    usage: answer.usage,
    steps: answer.steps.map((step) => ({
      finishReason: step.finishReason,
      toolResults: step.toolResults.map(({ toolName, output }) => ({ toolName, output })),
    })),
  };
}
process.stdout.write(JSON.stringify(result));
