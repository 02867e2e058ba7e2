import { Empty } from 'antd';
import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsagePoint } from '../../api/log';
import { modelColor } from './model-color';

export interface UsageChartProps {
  points: UsagePoint[];
  granularity: 'hour' | 'day';
  renderQuota: (quota: number) => string;
  emptyText: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

function bucketLabel(seconds: number, granularity: 'hour' | 'day'): string {
  const date = new Date(seconds * 1000);
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return granularity === 'hour' ? `${day} ${pad(date.getHours())}:00` : day;
}

/** Quota used per time bucket, stacked by model. Loaded only with the log page. */
export default function UsageChart({ points, granularity, renderQuota, emptyText }: UsageChartProps) {
  const { rows, models } = useMemo(() => {
    const byTime = new Map<number, Record<string, number | string>>();
    const names = new Set<string>();
    for (const point of points) {
      const name = point.model_name || '-';
      names.add(name);
      const row = byTime.get(point.time) ?? { label: bucketLabel(point.time, granularity) };
      row[name] = (Number(row[name]) || 0) + point.quota;
      byTime.set(point.time, row);
    }
    return { rows: [...byTime.entries()].sort(([a], [b]) => a - b).map(([, row]) => row), models: [...names].sort() };
  }, [points, granularity]);

  if (rows.length === 0) return <Empty description={emptyText} />;
  return (
    <div style={{ width: '100%', height: 280 }} data-testid="usage-chart">
      <ResponsiveContainer>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} />
          {/* Quota comes in whole units: a tick between two units would name an amount no call can cost. */}
          <YAxis
            allowDecimals={false}
            tickFormatter={(value: number) => renderQuota(value)}
            tick={{ fontSize: 11 }}
            width={80}
          />
          <Tooltip formatter={(value) => renderQuota(Number(value))} />
          <Legend />
          {models.map((model) => (
            <Bar key={model} dataKey={model} stackId="quota" fill={modelColor(model)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
