/** Coze has no fixed models: the model name is the bot id (optionally `bot-<id>`). */
export const cozeModels: readonly string[] = [];
