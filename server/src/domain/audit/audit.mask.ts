/** What a secret reads as in the audit trail. */
export const masked = '***';
/** A secret that the write changed: the value stays hidden, the change does not. */
export const maskedChanged = '*** (changed)';

/** Field and option names that hold secrets: passwords, keys, tokens, client secrets (SMTPPassword, …). */
const secretName = /secret|token|key|password/i;

/**
 * A copy with every secret masked: string values under a secret-looking name, at any depth, and inside JSON
 * text (a channel's `config` holds cloud credentials). Counts such as `prompt_tokens` are numbers and stay.
 */
export function maskSecrets(value: unknown, name = ''): unknown {
  if (typeof value === 'string') {
    if (value !== '' && secretName.test(name)) return masked;
    if (value.startsWith('{')) {
      try {
        return maskSecrets(JSON.parse(value) as unknown, name);
      } catch {
        return value;
      }
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, name));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskSecrets(item, key)]));
  return value;
}

/** Both sides masked; a masked field whose raw value changed reads `*** (changed)` after. */
export function maskPair(before: unknown, after: unknown): { before: unknown; after: unknown } {
  const maskedBefore = maskSecrets(before);
  const maskedAfter = maskSecrets(after);
  if (isRecord(after) && isRecord(maskedAfter)) {
    const previous = isRecord(before) ? before : {};
    for (const [key, value] of Object.entries(maskedAfter))
      if (value === masked && JSON.stringify(previous[key]) !== JSON.stringify(after[key]))
        maskedAfter[key] = maskedChanged;
  }
  return { before: maskedBefore, after: maskedAfter };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
