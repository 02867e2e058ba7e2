/** PaLM 2's built-in model list, as one-api has it (the API behind it is chat-bison-001). */
export const palmModels = ['PaLM-2'] as const;
