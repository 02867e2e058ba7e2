/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** Contrast ratio of white text on a #rrggbb background. */
export const contrastWithWhite = (hex: string): number => 1.05 / (luminance(hex) + 0.05);

/**
 * The brand colour darkened just enough for its white monogram to reach WCAG AA (4.5:1): the small letters of
 * a provider mark failed axe's contrast check on /about (issue 33 point 7).
 */
export function readableMarkColour(hex: string): string {
  let channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
  let colour = hex;
  while (contrastWithWhite(colour) < 4.5) {
    channels = channels.map((value) => Math.floor(value * 0.95));
    colour = `#${channels.map((value) => value.toString(16).padStart(2, '0')).join('')}`;
  }
  return colour;
}
