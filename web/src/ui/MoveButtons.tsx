import { useI18n } from "../i18n";

/** The list with the item at `i` moved `d` places (-1 up, 1 down). */
export function moved<T>(list: readonly T[], i: number, d: number): T[] {
  const next = [...list];
  const [x] = next.splice(i, 1);
  next.splice(i + d, 0, x as T);
  return next;
}

/** Up and down buttons of one item of an ordered list, named after the item for screen readers; `last` is the lowest index it may go to. */
export function MoveButtons({ name, index, last, onMove }: { name: string; index: number; last: number; onMove: (d: -1 | 1) => void }) {
  const { t } = useI18n();
  return (
    <span className="nowrap">
      <button type="button" className="small" disabled={index <= 0} aria-label={`${name}: ${t("list.up")}`} onClick={() => onMove(-1)}>
        ↑
      </button>
      <button type="button" className="small" disabled={index >= last} aria-label={`${name}: ${t("list.down")}`} onClick={() => onMove(1)}>
        ↓
      </button>
    </span>
  );
}
