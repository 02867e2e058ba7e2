import type { ChannelTypeValue } from '../domain/channel/channel.constants.js';
import type { Adaptor } from './adaptor.js';
import { azure } from './adaptors/azure/index.js';
import { anthropic } from './adaptors/anthropic/index.js';
import { aws } from './adaptors/aws/index.js';
import { cloudflare } from './adaptors/cloudflare/index.js';
import { cohere } from './adaptors/cohere/index.js';
import { coze } from './adaptors/coze/index.js';
import { deepl } from './adaptors/deepl/index.js';
import { gemini } from './adaptors/gemini/index.js';
import { ollama } from './adaptors/ollama/index.js';
import { palm } from './adaptors/palm/index.js';
import { replicate } from './adaptors/replicate/index.js';
import { vertexai } from './adaptors/vertexai/index.js';
import { aiProxyLibrary } from './adaptors/aiproxy-library/index.js';
import { ali } from './adaptors/ali/index.js';
import { aliBailian } from './adaptors/ali-bailian/index.js';
import { baichuan } from './adaptors/baichuan/index.js';
import { baidu } from './adaptors/baidu/index.js';
import { baiduV2 } from './adaptors/baidu-v2/index.js';
import { doubao } from './adaptors/doubao/index.js';
import { minimax } from './adaptors/minimax/index.js';
import { tencent } from './adaptors/tencent/index.js';
import { xunfei } from './adaptors/xunfei/index.js';
import { xunfeiV2 } from './adaptors/xunfei-v2/index.js';
import { zhipu } from './adaptors/zhipu/index.js';
import { compatibleAdaptors as compatible } from './adaptors/compatible/index.js';
import { openai } from './adaptors/openai/index.js';

/** One channel type: its label, default base URL, and the adaptor that serves it (null = not written yet). */
export interface ChannelTypeDescription {
  type: number;
  name: string;
  /** '' when the channel must supply its own base URL. */
  defaultBaseUrl: string;
  adaptor: Adaptor | null;
  /** Name of the upstream family, for `owned_by` and GET /api/models (the adaptor id when there is one). */
  family: string;
  /** Built-in model names, from the adaptor. */
  models: readonly string[];
}

type Entry = [name: string, defaultBaseUrl: string, adaptor: Adaptor | null, family?: string];

const entries: Record<ChannelTypeValue, Entry> = {
  0: ['Unknown', '', null, 'unknown'],
  1: ['OpenAI', 'https://api.openai.com', openai],
  2: ['API2D', 'https://oa.api2d.net', openai],
  3: ['Azure', '', azure],
  4: ['CloseAI', 'https://api.closeai-proxy.xyz', openai],
  5: ['OpenAI-SB', 'https://api.openai-sb.com', openai],
  6: ['OpenAIMax', 'https://api.openaimax.com', openai],
  7: ['OhMyGPT', 'https://api.ohmygpt.com', openai],
  8: ['Custom', '', openai],
  9: ['Ails', 'https://api.caipacity.com', openai],
  10: ['AIProxy', 'https://api.aiproxy.io', openai],
  11: ['PaLM', 'https://generativelanguage.googleapis.com', palm],
  12: ['API2GPT', 'https://api.api2gpt.com', openai],
  13: ['AIGC2D', 'https://api.aigc2d.com', openai],
  14: ['Anthropic', 'https://api.anthropic.com', anthropic],
  15: ['Baidu', 'https://aip.baidubce.com', baidu],
  16: ['Zhipu', 'https://open.bigmodel.cn', zhipu],
  17: ['Ali', 'https://dashscope.aliyuncs.com', ali],
  18: ['Xunfei', 'wss://spark-api.xf-yun.com', xunfei],
  19: ['360', 'https://ai.360.cn', compatible.ai360],
  20: ['OpenRouter', 'https://openrouter.ai/api', compatible.openrouter],
  21: ['AIProxyLibrary', 'https://api.aiproxy.io', aiProxyLibrary],
  22: ['FastGPT', 'https://fastgpt.run/api/openapi', openai],
  23: ['Tencent', 'https://hunyuan.tencentcloudapi.com', tencent],
  24: ['Gemini', 'https://generativelanguage.googleapis.com', gemini],
  25: ['Moonshot', 'https://api.moonshot.cn', compatible.moonshot],
  26: ['Baichuan', 'https://api.baichuan-ai.com', baichuan],
  27: ['Minimax', 'https://api.minimax.chat', minimax],
  28: ['Mistral', 'https://api.mistral.ai', compatible.mistral],
  29: ['Groq', 'https://api.groq.com/openai', compatible.groq],
  30: ['Ollama', 'http://localhost:11434', ollama],
  31: ['LingYiWanWu', 'https://api.lingyiwanwu.com', compatible.lingyiwanwu],
  32: ['StepFun', 'https://api.stepfun.com', compatible.stepfun],
  33: ['AwsClaude', '', aws],
  34: ['Coze', 'https://api.coze.com', coze],
  35: ['Cohere', 'https://api.cohere.ai', cohere],
  36: ['DeepSeek', 'https://api.deepseek.com', compatible.deepseek],
  37: ['Cloudflare', 'https://api.cloudflare.com', cloudflare],
  38: ['DeepL', 'https://api-free.deepl.com', deepl],
  39: ['TogetherAI', 'https://api.together.xyz', compatible.togetherai],
  40: ['Doubao', 'https://ark.cn-beijing.volces.com', doubao],
  41: ['Novita', 'https://api.novita.ai/v3/openai', compatible.novita],
  42: ['VertexAI', '', vertexai],
  43: ['Proxy', '', null, 'proxy'],
  44: ['SiliconFlow', 'https://api.siliconflow.cn', compatible.siliconflow],
  45: ['xAI', 'https://api.x.ai', compatible.xai],
  46: ['Replicate', 'https://api.replicate.com/v1/models/', replicate],
  47: ['BaiduV2', 'https://qianfan.baidubce.com', baiduV2],
  48: ['XunfeiV2', 'https://spark-api-open.xf-yun.com', xunfeiV2],
  49: ['AliBailian', 'https://dashscope.aliyuncs.com', aliBailian],
  50: ['OpenAICompatible', '', compatible.openaiCompatible],
  51: ['GeminiOpenAICompatible', 'https://generativelanguage.googleapis.com/v1beta/openai', compatible.geminiOpenAI],
};

const descriptions = new Map<number, ChannelTypeDescription>(
  Object.entries(entries).map(([type, [name, defaultBaseUrl, adaptor, family]]) => {
    const familyName = family ?? adaptor?.id ?? 'unknown';
    const models = adaptor?.models ?? [];
    return [Number(type), { type: Number(type), name, defaultBaseUrl, adaptor, family: familyName, models }];
  }),
);

/** The description of a channel type; unknown numbers describe as "Unknown" without an adaptor. */
export function describeChannelType(type: number): ChannelTypeDescription {
  return (
    descriptions.get(type) ?? {
      type,
      name: 'Unknown',
      defaultBaseUrl: '',
      adaptor: null,
      family: 'unknown',
      models: [],
    }
  );
}

/** Every known type, in number order. */
export const allChannelTypes = (): ChannelTypeDescription[] => [...descriptions.values()];
