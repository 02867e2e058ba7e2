import { Flex, theme, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface PageHeadingProps {
  title: ReactNode;
  extra?: ReactNode;
}

/**
 * The heading row at the top of a page. The title is the page's one h1 (what a screen reader lists and jumps to
 * first), drawn at the size of antd's h3 as before.
 */
export function PageHeading({ title, extra }: PageHeadingProps) {
  const { token } = theme.useToken();
  return (
    <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
      <Typography.Title
        level={1}
        style={{ margin: 0, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3 }}
      >
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
