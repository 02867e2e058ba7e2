/** Completions remembered per model. */
const samplesPerModel = 32;
/** Below this many, a model has no typical output yet and the configured default applies. */
const minimumSamples = 4;
/** Models remembered; the oldest is forgotten beyond (model names come from clients). */
const maxModels = 1000;

/**
 * The output a model typically produces on this node: the 90th percentile of its last 32 completions. A
 * call that sets no max_tokens is held for this much output (decision 0014), so reservations follow what
 * calls really cost instead of a fixed guess that is ten times too high for short answers and too low for
 * long ones.
 */
export class TypicalOutput {
  private readonly samples = new Map<string, number[]>();

  record(model: string, completionTokens: number): void {
    let ring = this.samples.get(model);
    if (!ring) {
      if (this.samples.size >= maxModels) this.samples.delete(this.samples.keys().next().value as string);
      this.samples.set(model, (ring = []));
    }
    ring.push(completionTokens);
    if (ring.length > samplesPerModel) ring.shift();
  }

  /** Tokens, or undefined while fewer than four completions of the model were seen. */
  of(model: string): number | undefined {
    const ring = this.samples.get(model);
    if (!ring || ring.length < minimumSamples) return undefined;
    const sorted = [...ring].sort((a, b) => a - b);
    return sorted[Math.ceil(sorted.length * 0.9) - 1];
  }
}
