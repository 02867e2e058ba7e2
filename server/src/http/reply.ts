/** The management API's success envelope. */
export const ok = <T>(data?: T, message = '') => ({ success: true, message, data: data ?? null });
