// One of a few choices shown as pressed buttons side by side (styles.css, `.segmented`): a list's
// view, a chart's range.

export type SegmentedOption<T extends string> = { value: T; label: string; testId: string };

export function SegmentedChoice<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  /** What the group chooses, for assistive technology. */
  label: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          data-testid={option.testId}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
