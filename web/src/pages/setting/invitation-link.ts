/** The invitation link a user shares: the register page with their aff code. */
export const invitationLink = (origin: string, affCode: string): string =>
  `${origin}/register?aff=${encodeURIComponent(affCode)}`;
