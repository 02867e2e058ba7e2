/**
 * The new-version notice shows when the server runs another version than this build, the build version is
 * known, and the server version is not the unset marker v0.0.0.
 */
export function shouldShowNewVersion(serverVersion: string | undefined, buildVersion: string | undefined): boolean {
  if (!serverVersion || !buildVersion) return false;
  if (serverVersion === 'v0.0.0') return false;
  return serverVersion !== buildVersion;
}
