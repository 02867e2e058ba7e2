/** Offers the generated codes as a text file named after the batch, one code per line. */
export function downloadCodes(name: string, codes: readonly string[]): void {
  const blob = new Blob([codes.join('\n')], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.txt`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
