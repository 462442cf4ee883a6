/** One sample of a Prometheus text exposition: `name{label="value",...} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE_LINE.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL_PAIR)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with this name whose labels include these; 0 when there is none (a counter not yet moved). */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const sample = parseSamples(text).find(
    (candidate) => candidate.name === name && Object.entries(labels).every(([key, value]) => candidate.labels[key] === value),
  );
  return sample?.value ?? 0;
}
