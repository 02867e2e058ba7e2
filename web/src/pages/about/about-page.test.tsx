import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ModelPricing, PricingList } from '../../api/pricing';
import { signIn, signOut } from '../../stores/user.store';
import { renderPage } from '../../test/render';
import AboutPage from './about-page';

const fetchPricing = vi.hoisted(() => vi.fn());
const fetchAbout = vi.hoisted(() => vi.fn());
vi.mock('../../api/pricing', () => ({ fetchPricing }));
vi.mock('../../api/status', () => ({ fetchAbout }));

const model = (name: string, fields: Partial<ModelPricing> = {}): ModelPricing => ({
  model: name,
  source: 'catalogue',
  channel_type: 1,
  group_ratio: 1,
  price: { input: 2.5, output: 10 },
  ratio: null,
  quota_per_1k: { input: 1250, output: 5000 },
  quota_per_1m: { input: 1_250_000, output: 5_000_000 },
  varies: false,
  ...fields,
});

const list = (models: ModelPricing[], group = 'default'): PricingList => ({
  group,
  group_ratio: 1,
  quota_per_unit: 500_000,
  models,
});

const rowOf = (name: string) => screen.getByText(name, { selector: 'strong, span' }).closest('tr') as HTMLElement;

describe('AboutPage', () => {
  it("shows the server's models with the prices it charges, unknown and unpriced ones too", async () => {
    signOut();
    fetchPricing.mockResolvedValue(
      list([
        model('gpt-4o'),
        model('old-model', {
          source: 'ratio',
          price: { input: 6, output: 6 },
          ratio: { model_ratio: 3, completion_ratio: 1 },
        }),
        model('mystery-model', { source: 'missing', price: null, quota_per_1k: {}, quota_per_1m: {} }),
      ]),
    );
    fetchAbout.mockResolvedValue('# About this gateway');
    renderPage(<AboutPage />, '/about');
    await waitFor(() => expect(screen.getByTestId('catalogue-count')).toHaveTextContent('共 3 个可用模型'));
    expect(await screen.findByRole('heading', { name: 'About this gateway' })).toBeInTheDocument();

    const gpt = within(rowOf('gpt-4o'));
    expect(gpt.getByText('输入 $2.5000 / 1M')).toBeInTheDocument();
    expect(gpt.getByText('输出 $10.0000 / 1M')).toBeInTheDocument();
    expect(gpt.getByText('按美元价格计费')).toBeInTheDocument();
    expect(gpt.getByText('OpenAI')).toBeInTheDocument();

    const old = within(rowOf('old-model'));
    expect(old.getByText('模型倍率 3')).toBeInTheDocument();
    expect(old.getByText('补全倍率 1')).toBeInTheDocument();
    expect(old.getByText('输入 $6.0000 / 1M')).toBeInTheDocument();
    expect(old.getByText('暂无介绍')).toBeInTheDocument();

    expect(within(rowOf('mystery-model')).getByText('未定价')).toBeInTheDocument();

    fireEvent.click(screen.getByText('每 1K tokens'));
    expect(await within(rowOf('gpt-4o')).findByText('输入 $0.0025 / 1K')).toBeInTheDocument();
  });

  it("shows a signed-in user their group's prices, with tiers, cache and per-call prices", async () => {
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    fetchPricing.mockResolvedValue(
      list(
        [
          model('claude-sonnet-4-5', {
            group_ratio: 1.5,
            price: { input: 4.5, output: 22.5, cache_read: 0.45, tiers: [{ above: 200_000, input: 9 }] },
          }),
          model('flux-pro', { price: { per_image: 0.06 }, varies: true }),
        ],
        'vip',
      ),
    );
    fetchAbout.mockResolvedValue('');
    renderPage(<AboutPage />, '/about');
    await waitFor(() => expect(screen.getByTestId('catalogue-count')).toHaveTextContent('共 2 个可用模型'));
    const claude = within(rowOf('claude-sonnet-4-5'));
    expect(claude.getByText('输入 $4.5000 / 1M')).toBeInTheDocument();
    expect(claude.getByText('缓存读取 $0.4500 / 1M')).toBeInTheDocument();
    expect(claude.getByText('提示超过 200K tokens：输入 $9.0000 / 1M')).toBeInTheDocument();
    expect(claude.getByText('分组倍率 1.5（已计入价格）')).toBeInTheDocument();
    const flux = within(rowOf('flux-pro'));
    expect(flux.getByText('每张图片 $0.06')).toBeInTheDocument();
    expect(flux.getByText('其他渠道价格不同')).toBeInTheDocument();
  });
});
