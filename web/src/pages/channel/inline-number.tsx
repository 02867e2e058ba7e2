import { InputNumber } from 'antd';
import { useEffect, useState } from 'react';

export interface InlineNumberProps {
  value: number | null;
  min?: number;
  ariaLabel: string;
  onSave: (value: number) => void;
}

/** A small number box that saves on blur or Enter when its value changed; an empty box is ignored. */
export function InlineNumber({ value, min, ariaLabel, onSave }: InlineNumberProps) {
  const [draft, setDraft] = useState<number | null>(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => {
    if (draft === null || draft === undefined || draft === value) return;
    onSave(draft);
  };
  return (
    <InputNumber
      size="small"
      style={{ width: 76 }}
      value={draft}
      min={min}
      precision={0}
      aria-label={ariaLabel}
      onChange={(next) => setDraft(typeof next === 'number' ? next : null)}
      onBlur={commit}
      onPressEnter={commit}
    />
  );
}
