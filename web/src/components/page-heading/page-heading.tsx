import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface PageHeadingProps {
  title: ReactNode;
  extra?: ReactNode;
}

/** The heading row at the top of a page. */
export function PageHeading({ title, extra }: PageHeadingProps) {
  return (
    <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
