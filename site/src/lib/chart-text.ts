// Text the home and compare charts need beyond format.ts: one unit scale for a whole axis (ticks without
// their unit, the unit in the axis title), percent ticks, and series labels split into what is measured
// and the configuration.
import { quantity, sig } from './format.ts';

export interface AxisScale {
  factor: number;
  suffix: string;
}

const FACTORS = [1e-3, 1, 1e3, 1e6, 1e9, 1024, 1024 ** 2];

/**
 * The scale quantity() writes the largest value of an axis in, so every tick reads in that one scale:
 * ticks 0, 0.5, 1, 1.5 under "ms", not "0", "500 µs", "1 ms".
 */
export function axisScale(unit: string, method: string | undefined, magnitude: number): AxisScale {
  if (!(magnitude > 0)) return { factor: 1, suffix: quantity(1, unit, method).replace(/^[\d.,]+\s*/, '') };
  const text = quantity(magnitude, unit, method);
  const [, num = '1', suffix = ''] = /^([\d.,]+)\s*(.*)$/.exec(text) ?? [];
  const ratio = magnitude / Number(num.replace(/,/g, ''));
  // the nearest of the factors format.ts scales by (the shown number is rounded, the ratio only close)
  const factor = FACTORS.reduce((best, f) => (Math.abs(Math.log(ratio / f)) < Math.abs(Math.log(ratio / best)) ? f : best), 1);
  return { factor, suffix };
}

/** A tick in an axis scale: the number only. */
export const tickText = (v: number, s: AxisScale) => sig(v / s.factor);

/** A change as a tick label: whole percents where they are whole ("−30%"), else one decimal. */
export function pctTick(t: number): string {
  const d = (t - 1) * 100;
  if (Math.abs(d) < 1e-9) return '0%';
  const whole = Math.abs(d - Math.round(d)) < 1e-6;
  return `${d < 0 ? '−' : '+'}${whole ? Math.abs(Math.round(d)) : Math.abs(d).toFixed(1)}%`;
}

/**
 * A series label in two parts: what is measured, and the configuration ("...; TLS 1.3 ecdsa-p256 groups
 * X25519, new"). Splits at the first semicolon outside parentheses, so "(valgrind callgrind, fixed-seed
 * RNG; valgrind hides ...)" stays whole.
 */
export function labelParts(label: string): { what: string; config: string } {
  let depth = 0;
  for (let i = 0; i < label.length; i++) {
    const c = label[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) return { what: label.slice(0, i).trim(), config: label.slice(i + 1).trim() };
  }
  return { what: label.trim(), config: '' };
}
