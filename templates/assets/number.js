/* benchproof: how a measured value is written, in the browser. The twin of Python's
 * benchproof.text.number, held to the same table of cases (tests/fixtures/number_cases.json):
 * "1,234.57" at two decimals; "--" for a value not measured (null, NaN, an infinity); a zero
 * has no sign; an exact tie rounds to even, as Python does (3.125 -> "3.12"); with no decimals
 * a value halfway between two whole numbers keeps its ".5"; a value the fixed form cannot show
 * (one that would read as zero, or one of 1e16 or more) gets two significant digits, written
 * as Python's "{:.2g}" writes them ("0.004", "1e-310", "1.8e+308"), never "0.00".
 * Rounding is done on the double's exact value (BigInt), so no digit depends on the browser.
 * A page script reads it as window.benchproofText; node as a module. */
(function (root) {
  "use strict";
  const MISSING = "--";
  const HUGE = 1e16;

  // |x| = mantissa * 2 ** exponent, exactly
  function exact(x) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, Math.abs(x));
    const high = view.getUint32(0);
    const biased = high >>> 20;
    const mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
    return biased === 0 ? [mantissa, -1074] : [mantissa | (1n << 52n), biased - 1075];
  }

  // |x| * 10 ** power rounded to a whole number, an exact tie to the even one
  function scaled(x, power) {
    const [mantissa, exponent] = exact(x);
    let top = mantissa;
    let bottom = 1n;
    if (exponent >= 0) { top <<= BigInt(exponent); } else { bottom <<= BigInt(-exponent); }
    if (power >= 0) { top *= 10n ** BigInt(power); } else { bottom *= 10n ** BigInt(-power); }
    let whole = top / bottom;
    const twice = (top % bottom) * 2n;
    if (twice > bottom || (twice === bottom && whole % 2n === 1n)) { whole += 1n; }
    return whole;
  }

  function grouped(digits) {
    return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  // Python's f"{x:,.{decimals}f}"
  function fixed(x, decimals) {
    const digits = scaled(x, decimals).toString().padStart(decimals + 1, "0");
    const cut = digits.length - decimals;
    return (x < 0 ? "-" : "") + grouped(digits.slice(0, cut)) + (decimals ? "." + digits.slice(cut) : "");
  }

  // Python's f"{x:.2g}" (x not 0)
  function significant(x) {
    let power = Math.floor(Math.log10(Math.abs(x)));
    let digits = scaled(x, 1 - power);
    for (let step = 0; step < 4 && (digits >= 100n || digits < 10n); step++) {
      power += digits >= 100n ? 1 : -1;
      digits = scaled(x, 1 - power);
    }
    const sign = x < 0 ? "-" : "";
    const text = digits.toString();
    if (power >= -4 && power < 2) {
      const decimals = 1 - power;
      const padded = text.padStart(decimals + 1, "0");
      const cut = padded.length - decimals;
      const shown = decimals ? (padded.slice(0, cut) + "." + padded.slice(cut)).replace(/\.?0+$/, "") : padded;
      return sign + shown;
    }
    const mantissa = text[1] === "0" ? text[0] : text[0] + "." + text[1];
    const size = Math.abs(power);
    return sign + mantissa + "e" + (power < 0 ? "-" : "+") + (size < 10 ? "0" : "") + size;
  }

  function number(value, decimals) {
    if (typeof value !== "number" || !Number.isFinite(value)) { return MISSING; }
    const x = value === 0 ? 0 : value;   // -0 too
    if (Math.abs(x) >= HUGE) { return significant(x); }
    if (decimals === 0 && Number.isInteger(x * 2) && !Number.isInteger(x)) { return fixed(x, 1); }
    const text = fixed(x, decimals);
    return x !== 0 && !/[1-9]/.test(text) ? significant(x) : text;
  }

  // a count: "100,000"
  function thousands(n) {
    return number(n, 0);
  }

  const api = { MISSING: MISSING, number: number, thousands: thousands };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.benchproofText = api;
  }
}(typeof window !== "undefined" ? window : globalThis));
