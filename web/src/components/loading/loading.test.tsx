import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { Loading } from './loading';

initI18n();

describe('Loading', () => {
  it("says 'loading page ...' by default, about 100 px high", () => {
    render(<Loading />);
    const placeholder = screen.getByTestId('loading');
    expect(placeholder).toHaveTextContent('加载页面中...');
    expect(placeholder).toHaveStyle({ height: '100px' });
  });

  it('names what loads', () => {
    render(<Loading prompt="模型" />);
    expect(screen.getByTestId('loading')).toHaveTextContent('加载模型中...');
  });
});
