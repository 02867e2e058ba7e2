import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../i18n';
import { renderLogContent, translateLogContent } from './log-content';

/** Details as the server writes them (relay, billing, users, redemptions, channel tests) and as one-api wrote them. */
const STORED = {
  consume: '倍率：0.08 × 1.00 × 4.00',
  consumeWithNotes: '倍率：1.50 × 1.00 × 4.00，网络搜索 2 次，缓存读取 1024 tokens，缓存写入 256 tokens，会话保持命中',
  media: '倍率：7.50 × 1.00',
  listPrice: '价格：输入 $2.5/M，输出 $10/M，分组倍率 1.50',
  listPriceTier:
    '价格：输入 $6/M，输出 $22.5/M，分组倍率 1.00，上下文 >200000 tokens 档，缓存读取 1024 tokens，网络搜索 1 次',
  oneApi: '模型倍率 0.08，分组倍率 1.00，补全倍率 4.00',
  redeemed: '通过兑换码充值 ＄10.000000 额度',
  apiTopUp: '通过 API 充值 500000 点额度',
  signUp: '新用户注册赠送 ＄0.200000 额度',
  admin: '管理员将用户额度从 ＄1.000000 额度修改为 ＄2.500000 额度',
  adminMoved:
    '管理员将用户额度从 ＄-1.000000 额度修改为 ＄0.500000 额度（按编辑差额调整：编辑页载入时为 ＄2.000000 额度，保存为 ＄3.500000 额度）',
  refund: '退还预扣额度 ＄0.004000 额度：请求 req-1 节点 node-a 已停止，未完成计费',
  refundOwn: '退还预扣额度 2000 点额度：请求 42 调用未结算，未完成计费',
  test: '渠道 主渠道，备用 测试成功，响应：你好，世界',
  testFailed: '渠道 openai 测试失败，错误：invalid api key',
  proxy: '代理请求 POST /v1/files → 200',
};

beforeAll(async () => {
  initI18n();
  await changeLanguage('en');
});

describe('renderLogContent', () => {
  it('reads every stored template back exactly (the Chinese texts are the templates)', async () => {
    const zh = i18n.getFixedT('zh-CN');
    for (const [name, content] of Object.entries(STORED)) expect(renderLogContent(content, zh), name).toBe(content);
  });

  it('renders the details in English', () => {
    const en = i18n.getFixedT('en');
    expect(renderLogContent(STORED.consume, en)).toBe('Ratios: 0.08 × 1.00 × 4.00');
    expect(renderLogContent(STORED.consumeWithNotes, en)).toBe(
      'Ratios: 1.50 × 1.00 × 4.00, web searches: 2, prompt cache read: 1024 tokens, ' +
        "prompt cache written: 256 tokens, stayed on the conversation's channel",
    );
    expect(renderLogContent(STORED.listPrice, en)).toBe('Price: input $2.5/M, output $10/M, group ratio 1.50');
    expect(renderLogContent(STORED.listPriceTier, en)).toBe(
      'Price: input $6/M, output $22.5/M, group ratio 1.00, context tier above 200000 tokens, ' +
        'prompt cache read: 1024 tokens, web searches: 1',
    );
    expect(renderLogContent(STORED.oneApi, en)).toBe('model ratio 0.08, group ratio 1.00, completion ratio 4.00');
    expect(renderLogContent(STORED.redeemed, en)).toBe('Topped up $10.000000 of quota with a redemption code');
    expect(renderLogContent(STORED.apiTopUp, en)).toBe('Topped up 500000 quota through the API');
    expect(renderLogContent(STORED.admin, en)).toBe(
      "An administrator changed the user's quota from $1.000000 of quota to $2.500000 of quota",
    );
    expect(renderLogContent(STORED.adminMoved, en)).toBe(
      "An administrator changed the user's quota from $-1.000000 of quota to $0.500000 of quota (moved by the edit: the page loaded $2.000000 of quota and saved $3.500000 of quota)",
    );
    expect(renderLogContent(STORED.refund, en)).toBe(
      'Returned the held $0.004000 of quota: request req-1 ran on node node-a, which stopped, billing not completed',
    );
    // A channel's name and the upstream's answer are the user's and the vendor's words: kept as they are.
    expect(renderLogContent(STORED.test, en)).toBe('Channel 主渠道，备用 test succeeded, response: 你好，世界');
    expect(renderLogContent(STORED.proxy, en)).toBe('Proxied request POST /v1/files → 200');
  });

  it('gives up on text that fits no template', () => {
    const en = i18n.getFixedT('en');
    expect(renderLogContent('管理员手动充值', en)).toBeNull();
    expect(renderLogContent('倍率：1.00，未知的备注', en)).toBeNull();
  });
});

describe('translateLogContent', () => {
  it('keeps the stored text in Chinese and for unknown text, translates known templates in English', () => {
    const en = i18n.getFixedT('en');
    expect(translateLogContent(STORED.signUp, en, 'zh-CN')).toBe(STORED.signUp);
    expect(translateLogContent(STORED.signUp, en, 'en')).toBe('Sign-up bonus of $0.200000 of quota');
    expect(translateLogContent('remark from an admin', en, 'en')).toBe('remark from an admin');
    expect(translateLogContent('', en, 'en')).toBe('');
  });
});
