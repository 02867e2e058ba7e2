type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (path) => window.location.assign(path);

/** The router registers itself here so that modules outside React (the API client) can navigate. */
export function bindNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string, options?: { replace?: boolean }): void {
  navigateImpl(path, options);
}
