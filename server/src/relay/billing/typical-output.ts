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
  /** Per model: the last completions, and their percentile once computed (undefined when a sample came since). */
  private readonly models = new Map<string, { samples: number[]; typical: number | undefined }>();

  record(model: string, completionTokens: number): void {
    let entry = this.models.get(model);
    if (!entry) {
      if (this.models.size >= maxModels) this.models.delete(this.models.keys().next().value as string);
      this.models.set(model, (entry = { samples: [], typical: undefined }));
    }
    entry.samples.push(completionTokens);
    if (entry.samples.length > samplesPerModel) entry.samples.shift();
    entry.typical = undefined;
  }

  /** Tokens, or undefined while fewer than four completions of the model were seen. */
  of(model: string): number | undefined {
    const entry = this.models.get(model);
    if (!entry || entry.samples.length < minimumSamples) return undefined;
    if (entry.typical === undefined) {
      const sorted = [...entry.samples].sort((a, b) => a - b);
      entry.typical = sorted[Math.ceil(sorted.length * 0.9) - 1];
    }
    return entry.typical;
  }
}
