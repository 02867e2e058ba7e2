/** Spark HTTP API model names (the `domain` of each version), as one-api lists them. */
export const xunfeiV2Models = ['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra'] as const;
