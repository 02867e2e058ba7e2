import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signIn, signOut } from '../../stores/user.store';
import { renderPage } from '../../test/render';
import AboutPage from './about-page';
import { CATALOGUE } from './catalogue.data';

const fetchAvailableModels = vi.hoisted(() => vi.fn());
vi.mock('../../api/user', () => ({ fetchAvailableModels }));

describe('AboutPage', () => {
  it('shows the whole catalogue to visitors', () => {
    signOut();
    renderPage(<AboutPage />, '/about');
    expect(screen.getByTestId('catalogue-count')).toHaveTextContent(`共 ${CATALOGUE.length} 个可用模型`);
    expect(fetchAvailableModels).not.toHaveBeenCalled();
  });

  it("limits signed-in users to the server's models", async () => {
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    fetchAvailableModels.mockResolvedValue(['gpt-4o', 'deepseek-chat', 'unknown-model']);
    renderPage(<AboutPage />, '/about');
    await waitFor(() => expect(screen.getByTestId('catalogue-count')).toHaveTextContent('共 2 个可用模型'));
    expect(screen.getByText('gpt-4o')).toBeInTheDocument();
    expect(screen.getByText('deepseek-chat')).toBeInTheDocument();
    expect(screen.queryByText('unknown-model')).toBeNull();
  });
});
