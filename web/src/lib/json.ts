/** True when the text parses as JSON (any JSON value, as the original helper did). */
export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
