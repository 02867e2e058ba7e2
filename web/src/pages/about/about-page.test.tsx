import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signIn, signOut } from '../../stores/user.store';
import { renderPage } from '../../test/render';
import AboutPage from './about-page';
import { CATALOGUE } from './catalogue.data';

const fetchAvailableModels = vi.hoisted(() => vi.fn());
const fetchServedModels = vi.hoisted(() => vi.fn());
const fetchAbout = vi.hoisted(() => vi.fn());
vi.mock('../../api/user', () => ({ fetchAvailableModels }));
vi.mock('../../api/status', () => ({ fetchServedModels, fetchAbout }));

describe('AboutPage', () => {
  it('shows visitors only the models some channel serves, and the About text', async () => {
    signOut();
    fetchServedModels.mockResolvedValue(['gpt-4o-mini', 'deepseek-chat', 'not-in-catalogue']);
    fetchAbout.mockResolvedValue('# About this gateway');
    renderPage(<AboutPage />, '/about');
    await waitFor(() => expect(screen.getByTestId('catalogue-count')).toHaveTextContent('共 2 个可用模型'));
    expect(await screen.findByRole('heading', { name: 'About this gateway' })).toBeInTheDocument();
    expect(fetchAvailableModels).not.toHaveBeenCalled();
    expect(CATALOGUE.length).toBeGreaterThan(2);
  });

  it("limits signed-in users to the server's models", async () => {
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    fetchAvailableModels.mockResolvedValue(['gpt-4o', 'deepseek-chat', 'unknown-model']);
    fetchAbout.mockResolvedValue('');
    renderPage(<AboutPage />, '/about');
    await waitFor(() => expect(screen.getByTestId('catalogue-count')).toHaveTextContent('共 2 个可用模型'));
    expect(screen.getByText('gpt-4o')).toBeInTheDocument();
    expect(screen.getByText('deepseek-chat')).toBeInTheDocument();
    expect(screen.queryByText('unknown-model')).toBeNull();
  });
});
