import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useSystemBrand } from '../header/use-system-brand';

export interface AuthCardProps {
  title: string;
  children: ReactNode;
}

/** The centred card of the sign-in, register and reset screens. */
export function AuthCard({ title, children }: AuthCardProps) {
  const { logo } = useSystemBrand();
  return (
    <div className="auth-page">
      <Card className="auth-card">
        <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
          <img src={logo} alt="" width={48} height={48} style={{ objectFit: 'contain' }} />
          {/* The page's one h1, at the size of an h3. */}
          <Typography.Title level={1} style={{ margin: 0, textAlign: 'center', fontSize: 24, lineHeight: 1.35 }}>
            {title}
          </Typography.Title>
        </Flex>
        {children}
      </Card>
    </div>
  );
}
