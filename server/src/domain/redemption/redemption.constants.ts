/** Redemption code statuses, as one-api numbers them. */
export const RedemptionStatus = { Enabled: 1, Disabled: 2, Used: 3 } as const;

/** Most codes one create call may make. */
export const maxRedemptionBatch = 100;

/** one-api turns a quota of 0 on creation into this. */
export const defaultRedemptionQuota = 100;

/** Longest code name, in characters. */
export const maxRedemptionNameLength = 20;
