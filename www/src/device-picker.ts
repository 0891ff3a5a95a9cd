// The simulated TPU (chip and slice) the next runs are costed on, picked in
// the Chip panel with the chosen preset's figures, and how many ranks of
// torch.distributed they run as, picked in the toolbar (kept between visits);
// the toolbar's chip button says both and opens the Chip panel. The device
// is set on the runtime, so it lives here and in the runtime only; the ranks
// are the picker's value, which runs read when they start.
import type { ChipPreset, Playground } from "tpu-playground";
import { $ } from "./dom";
import { renderChipSpecs } from "./panels";
import { remember, remembered } from "./settings";

const RANKS = ["1", "2", "4", "8"] as const;

export class DevicePicker {
  /** The simulated TPU the next runs are costed on (what share links carry);
   * an empty slice is one chip, or the smallest slice with a chip per rank. */
  private device = { chip: "v5e", slice: "" };
  /** The runtime's chip presets, once it has started. */
  private presets: ChipPreset[] = [];
  private readonly chipSelect = $<HTMLSelectElement>("#chip-select");
  private readonly sliceInput = $<HTMLInputElement>("#slice-input");
  private readonly ranksSelect = $<HTMLSelectElement>("#ranks-select");
  private readonly message = $<HTMLElement>("#chip-message");
  private readonly badge = $<HTMLButtonElement>("#chip-badge");

  /** `client` is the runtime, or null while it (re)starts or stops a run;
   * `openChipPanel` shows the Chip panel (the toolbar's chip button). */
  constructor(
    private readonly client: () => Playground | null,
    openChipPanel: () => void,
  ) {
    this.ranksSelect.value = remembered("ranks", RANKS, "1");
    this.badge.addEventListener("click", openChipPanel);
    this.showNextRuns();
    this.ranksSelect.addEventListener("change", () => this.useRanks(this.ranksSelect.value));
    this.chipSelect.addEventListener("change", () => this.renderSpecs());
    $("#chip-apply").addEventListener("click", () => void this.useDevice(this.chipSelect.value, this.sliceInput.value.trim()));
  }

  /** The chip and slice the next runs are costed on. */
  get current(): { chip: string; slice: string } {
    return { ...this.device };
  }

  /** How many ranks the next runs have, as the picker says it ("1", "4"...). */
  get ranks(): string {
    return this.ranksSelect.value;
  }

  /** Offers the runtime's presets (once). */
  showChips(chips: ChipPreset[]) {
    if (this.presets.length) return;
    this.presets = chips;
    this.chipSelect.append(...chips.map((c) => new Option(c.name, c.id)));
    this.chipSelect.value = this.device.chip;
    this.sliceInput.value = this.device.slice;
    this.renderSpecs();
  }

  /** Costs the next runs on `chip` and `slice`; the runtime checks them. */
  async useDevice(chip: string, slice: string) {
    const playground = this.client();
    if (!playground) return;
    try {
      await playground.setDevice(chip, slice);
      this.device = { chip, slice };
      if (this.presets.length) {
        this.chipSelect.value = chip;
        this.sliceInput.value = slice;
        this.renderSpecs();
      }
      this.message.textContent = "";
      this.showNextRuns();
    } catch (e) {
      this.message.textContent = e instanceof Error ? e.message : String(e);
    }
  }

  /** Chooses how many ranks the next runs have (kept between visits). */
  useRanks(ranks: string) {
    if (!(RANKS as readonly string[]).includes(ranks)) return;
    this.ranksSelect.value = ranks;
    remember("ranks", ranks);
    this.showNextRuns();
  }

  /** What the next runs run on, as the toolbar's chip button says it. */
  private showNextRuns() {
    const ranks = Number(this.ranks);
    const slice = this.device.slice || (ranks > 1 ? `${ranks} chips` : "1 chip");
    this.badge.textContent = `${this.device.chip} · ${slice}`;
    this.badge.title = `The next runs are costed on a simulated ${this.device.chip}, slice ${
      this.device.slice || (ranks > 1 ? "auto (the smallest with a chip per rank)" : "of one chip")
    }, as ${ranks} rank${ranks > 1 ? "s" : ""}. Open the Chip panel to change it.`;
  }

  private renderSpecs() {
    const chip = this.presets.find((c) => c.id === this.chipSelect.value);
    if (chip) renderChipSpecs($("#chip-specs"), chip);
  }
}
