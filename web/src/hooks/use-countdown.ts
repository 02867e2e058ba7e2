import { useCallback, useEffect, useState } from 'react';

/** A countdown in whole seconds, used to hold resend and reset buttons for 30 s. */
export function useCountdown(seconds: number): { remaining: number; active: boolean; start: () => void } {
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);

  const start = useCallback(() => setRemaining(seconds), [seconds]);
  return { remaining, active: remaining > 0, start };
}
