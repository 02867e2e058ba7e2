import type { OptionMap } from './use-options';

/** One option in a settings section. */
export interface OptionField {
  key: string;
  kind: 'text' | 'number' | 'textarea' | 'secret' | 'json' | 'select';
  /** Values offered by a select. */
  choices?: readonly string[];
  min?: number;
  step?: number;
  /** Translation key of the placeholder. */
  placeholderKey?: string;
  /** Translation key of a hint under the field. */
  hintKey?: string;
}

/** Removes the trailing slashes of an address, as the server address is stored. */
const normalizeAddress = (address: string): string => address.trim().replace(/\/+$/, '');

/**
 * The options of a section that need saving: changed values only; secret fields (never returned by the
 * server) only when non-empty; the server address normalised.
 */
export function changedOptions(
  fields: readonly OptionField[],
  values: Record<string, unknown>,
  original: OptionMap,
): Array<[string, string]> {
  const changes: Array<[string, string]> = [];
  for (const field of fields) {
    const raw = values[field.key];
    let value = raw === null || raw === undefined ? '' : String(raw);
    if (field.key === 'ServerAddress') value = normalizeAddress(value);
    if (field.kind === 'secret') {
      if (value !== '' && value !== (original[field.key] ?? '')) changes.push([field.key, value]);
      continue;
    }
    if (field.kind === 'json' && sameJson(value, original[field.key] ?? '')) continue;
    if (value !== (original[field.key] ?? '')) changes.push([field.key, value]);
  }
  return changes;
}

/** JSON texts that say the same (the form shows them indented): an unchanged table is not saved again. */
function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/** Form values of a section, read from the option map. */
export function fieldValues(
  fields: readonly OptionField[],
  options: OptionMap,
): Record<string, string | number | null> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = options[field.key] ?? '';
      if (field.kind === 'secret') return [field.key, ''];
      if (field.kind === 'number') return [field.key, value === '' ? null : Number(value)];
      if (field.kind === 'json' && value) {
        try {
          return [field.key, JSON.stringify(JSON.parse(value), null, 2)];
        } catch {
          return [field.key, value];
        }
      }
      return [field.key, value];
    }),
  );
}

/** Email-domain whitelist entries without blanks or duplicates, joined with commas. */
export const joinWhitelist = (entries: readonly string[]): string =>
  [...new Set(entries.map((entry) => entry.trim()).filter(Boolean))].join(',');
