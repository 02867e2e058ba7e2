import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { applyStatus, statusStore } from '../../stores/status.store';
import { AppFooter } from './app-footer';

initI18n();

describe('AppFooter', () => {
  it('shows the server footer without scripts or handlers', async () => {
    applyStatus({ footer_html: '<a href="/x" onclick="alert(1)">Powered</a><script>window.bad = 1</script>' });
    render(<AppFooter />);
    const footer = screen.getByTestId('footer');
    // The sanitising HtmlContent is loaded on demand.
    await screen.findByText('Powered');
    expect(footer.querySelector('a')).not.toBeNull();
    expect(footer.querySelector('a')?.getAttribute('onclick')).toBeNull();
    expect(footer.querySelector('script')).toBeNull();
    expect(footer).toHaveTextContent('Powered');
  });

  it('falls back to a default line', () => {
    statusStore.set({ system_name: 'Gate', version: 'v1.0.0' });
    render(<AppFooter />);
    expect(screen.getByTestId('footer')).toHaveTextContent('Gate v1.0.0');
  });
});
