import { AppError } from '../../../lib/errors.js';
import { anthropic } from '../../adaptors/anthropic/index.js';
import { aws } from '../../adaptors/aws/index.js';
import { bedrockModel } from '../../adaptors/aws/request.js';
import { vertexai } from '../../adaptors/vertexai/index.js';
import { isVertexClaude } from '../../adaptors/vertexai/models.js';
import type { RoutedChannel } from '../../routing/channel-router.js';
import type { RelayRuntime } from '../../runtime.js';

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
 * The relay runtime with a router that hands out only Claude channels for `model`, for a request holding
 * content only Claude reads (documents): the relay would otherwise send it to an OpenAI-protocol channel,
 * which would never see that content. Other channels are skipped (a lower priority Claude channel wins over
 * a higher one of another kind); if none serves the model, the first selection (or a channel chosen with a
 * key suffix) is refused with a 400, and a retry after a failure simply finds no further channel.
 *
 * The pipeline is unchanged: it asks `runtime.router` for channels, and this router asks the real one.
 */
export function claudeChannelsOnly(runtime: RelayRuntime, model: string): RelayRuntime {
  const router = runtime.router;
  const claudeRouter: typeof router = Object.create(router);
  claudeRouter.select = (group, selectedModel, exclude) => {
    const skipped = new Set(exclude);
    for (;;) {
      const channel = router.select(group, selectedModel, skipped);
      if (!channel) break;
      if (servesClaude(channel, selectedModel)) return channel;
      skipped.add(channel.row.id);
    }
    if (exclude.size === 0 && skipped.size > 0) throw documentsNeedClaude(model);
    return undefined;
  };
  claudeRouter.channel = (id) => {
    const channel = router.channel(id);
    if (channel && !servesClaude(channel, model)) throw documentsNeedClaude(model);
    return channel;
  };
  return { ...runtime, router: claudeRouter };
}
