/** A model as Gemini's `models.list` and `models.get` describe one (the fields clients read). */
export interface GeminiModelEntry {
  name: string;
  baseModelId: string;
  version: string;
  displayName: string;
  description: string;
  supportedGenerationMethods: string[];
}

/** Embedding models are told by their names, as the gateway knows no more of a model than its name. */
const isEmbeddingModel = (id: string) => /embed/i.test(id);

/** A model the key may call, in Gemini's shape: `models/<id>`, with the methods the front serves for it. */
export function geminiModelEntry(id: string): GeminiModelEntry {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    description: `${id}, served by ModelGate`,
    supportedGenerationMethods: isEmbeddingModel(id)
      ? ['embedContent', 'batchEmbedContents', 'countTokens']
      : ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}
