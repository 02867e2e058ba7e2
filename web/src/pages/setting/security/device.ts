/** A short, readable name for a session's User-Agent: "Chrome · macOS"; the raw text when nothing matches. */
export function describeDevice(userAgent: string): string {
  if (!userAgent) return '';
  const browser = [
    ['Edge', /Edg(e|A|iOS)?\//],
    ['Opera', /OPR\//],
    ['Firefox', /Firefox\/|FxiOS\//],
    ['Chrome', /Chrome\/|CriOS\//],
    ['Safari', /Version\/[\d.]+.*Safari\//],
  ].find(([, pattern]) => (pattern as RegExp).test(userAgent))?.[0] as string | undefined;
  const system = [
    ['Android', /Android/],
    ['iOS', /iPhone|iPad|iPod/],
    ['Windows', /Windows/],
    ['macOS', /Mac OS X|Macintosh/],
    ['Linux', /Linux/],
  ].find(([, pattern]) => (pattern as RegExp).test(userAgent))?.[0] as string | undefined;
  if (!browser && !system) return userAgent.slice(0, 80);
  return [browser, system].filter(Boolean).join(' · ');
}
