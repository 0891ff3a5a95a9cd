// The page's settings kept between visits (theme, backend, time limit) in
// localStorage, under `tpu-playground:<name>`. Storage that is unavailable
// (a private window) only means the choice lasts for this visit.

/** The saved value of `name` if it is one of `allowed`, else `fallback`. */
export function remembered<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  try {
    const saved = localStorage.getItem(`tpu-playground:${name}`);
    return allowed.includes(saved as T) ? (saved as T) : fallback;
  } catch {
    return fallback;
  }
}

export function remember(name: string, value: string) {
  try {
    localStorage.setItem(`tpu-playground:${name}`, value);
  } catch {
    // The choice lasts for this visit only.
  }
}
