/** MiniMax models as one-api lists them. */
export const minimaxModels = [
  'abab6.5-chat',
  'abab6.5s-chat',
  'abab6-chat',
  'abab5.5-chat',
  'abab5.5s-chat',
  'MiniMax-Text-01',
] as const;
