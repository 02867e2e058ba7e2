type Navigate = (path: string, options?: { replace?: boolean }) => Promise<void> | void;

let navigateImpl: Navigate = (path) => window.location.assign(path);

/** The router registers itself here so that modules outside React (the API client) can navigate. */
export function bindNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export async function navigateTo(path: string, options?: { replace?: boolean }): Promise<void> {
  await navigateImpl(path, options);
}
