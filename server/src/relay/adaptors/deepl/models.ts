/** DeepL "models": the target language follows the dash (one-api's list). */
export const deeplModels = ['deepl-zh', 'deepl-en', 'deepl-ja'] as const;
