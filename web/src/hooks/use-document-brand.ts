import { useEffect } from 'react';
import { useSystemBrand } from '../components/header/use-system-brand';

/** Page title = system name; favicon = logo. */
export function useDocumentBrand(): void {
  const { systemName, logo } = useSystemBrand();
  useEffect(() => {
    document.title = systemName;
  }, [systemName]);
  useEffect(() => {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    if (link.getAttribute('href') !== logo) link.href = logo;
  }, [logo]);
}
