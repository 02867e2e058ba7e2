import { AppError } from '../../../lib/errors.js';
import { anthropic } from '../../adaptors/anthropic/index.js';
import { aws } from '../../adaptors/aws/index.js';
import { bedrockModel } from '../../adaptors/aws/request.js';
import { vertexai } from '../../adaptors/vertexai/index.js';
import { isVertexClaude } from '../../adaptors/vertexai/models.js';
import type { ChannelLimit } from '../../pipeline/relay-job.js';
import type { RoutedChannel } from '../../routing/channel-router.js';
import { ChannelType } from '../../../domain/channel/channel.constants.js';
import type { DocumentReaders } from './documents.js';

/** Whether a channel answers this model with Claude's Messages API: Anthropic, Claude on Vertex or Bedrock. */
export function servesClaude(channel: RoutedChannel, model: string): boolean {
  const upstreamModel = channel.mapping[model] ?? model;
  if (channel.adaptor === anthropic) return true;
  if (channel.adaptor === vertexai) return isVertexClaude(upstreamModel);
  if (channel.adaptor !== aws) return false;
  try {
    return bedrockModel(upstreamModel).family === 'claude';
  } catch {
    return false;
  }
}

/** Channel types whose chat API takes an inline PDF as a `file` part (OpenAI's own shape; OpenRouter's too). */
const filePartChannelTypes: ReadonlySet<number> = new Set([ChannelType.OpenAI, ChannelType.OpenRouter]);

/** Whether a channel reads inline PDFs: a Claude one, or one whose chat API takes `file` parts. */
const readsInlinePdfs = (channel: RoutedChannel, model: string): boolean =>
  servesClaude(channel, model) || filePartChannelTypes.has(channel.row.type);

/** The refusal when only other channels serve the model. */
const documentsNeedClaude = (model: string) =>
  new AppError(
    'documents_need_claude',
    {
      zh: `URL 或文件形式的 document 内容块，以及工具结果中的 document，只能由 Claude 渠道（Anthropic、Vertex AI、AWS Bedrock）处理，模型 ${model} 没有这样的渠道`,
      en: `document blocks with a URL or file source, or inside a tool result, need a Claude channel (Anthropic, Vertex AI or AWS Bedrock Claude); none serves the model ${model}`,
    },
    400,
  );

/** The refusal when no channel of the model reads inline PDFs. */
const pdfsNeedReader = (model: string) =>
  new AppError(
    'documents_need_pdf_reader',
    {
      zh: `PDF 形式的 document 内容块需要 Claude 渠道，或 OpenAI、OpenRouter 渠道，模型 ${model} 没有这样的渠道`,
      en: `PDF documents need a Claude channel, or an OpenAI or OpenRouter channel; none serves the model ${model}`,
    },
    400,
  );

/**
 * The channel limit of an Anthropic front request. Documents not every channel reads (`documentReaders`) go
 * only to channels that read them: another would never see that content, so with none the request is refused
 * with a 400. Server tools (web search …) run on Claude channels, so those come first, within the documents'
 * limit; when none is left, the others answer without the tools.
 */
export function anthropicChannelLimit(
  readers: DocumentReaders,
  serverTools: boolean,
  model: string,
): ChannelLimit | undefined {
  const only: ChannelLimit['only'] =
    readers === 'claude'
      ? { accepts: (channel) => servesClaude(channel, model), refusal: () => documentsNeedClaude(model) }
      : readers === 'pdf'
        ? { accepts: (channel) => readsInlinePdfs(channel, model), refusal: () => pdfsNeedReader(model) }
        : undefined;
  const prefers = serverTools ? (channel: RoutedChannel) => servesClaude(channel, model) : undefined;
  return only || prefers ? { only, prefers } : undefined;
}
