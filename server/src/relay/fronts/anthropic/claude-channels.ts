import { AppError } from '../../../lib/errors.js';
import { anthropic } from '../../adaptors/anthropic/index.js';
import { aws } from '../../adaptors/aws/index.js';
import { bedrockModel } from '../../adaptors/aws/request.js';
import { vertexai } from '../../adaptors/vertexai/index.js';
import { isVertexClaude } from '../../adaptors/vertexai/models.js';
import type { ChannelLimit } from '../../pipeline/relay-job.js';
import type { RoutedChannel } from '../../routing/channel-router.js';

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

/** The refusal when only other channels serve the model. */
export const documentsNeedClaude = (model: string) =>
  new AppError(
    'documents_need_claude',
    {
      zh: `PDF、URL 或文件形式的 document 内容块只能由 Claude 渠道（Anthropic、Vertex AI、AWS Bedrock）处理，模型 ${model} 没有这样的渠道`,
      en: `document blocks with a PDF, URL or file source need a Claude channel (Anthropic, Vertex AI or AWS Bedrock Claude); none serves the model ${model}`,
    },
    400,
  );

/**
 * The channel limit of a request holding content only Claude reads (documents): the relay would otherwise
 * send it to an OpenAI-protocol channel, which would never see that content. Other channels are skipped; if
 * none serves the model, the request is refused with a 400.
 */
export const claudeChannelsOnly = (model: string): ChannelLimit => ({
  accepts: (channel) => servesClaude(channel, model),
  refusal: () => documentsNeedClaude(model),
});
