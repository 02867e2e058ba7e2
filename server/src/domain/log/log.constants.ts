/** Log types, as one-api numbers them (0 means "all" in filters). */
export const LogType = { Unknown: 0, TopUp: 1, Consume: 2, Manage: 3, System: 4, Test: 5 } as const;
