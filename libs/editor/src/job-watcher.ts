import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Api } from './api';
import type { Data, GenerationJobView } from '@catalogue/content/v3';

const POLL_MS = 1_000;

/**
 * Polls a generation job (`GET /generate/{id}`) until it is done or failed, reporting every
 * state; stops when the editor leaves the page. A failed poll (network, 503) is retried on the
 * next tick rather than ending the watch: the job goes on on the server either way.
 */
export class JobWatcher implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watching: number | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & { readonly apiClient: Api },
    private readonly report: (job: GenerationJobView) => void,
  ) {
    host.addController(this);
  }

  watch(job: GenerationJobView): void {
    this.stop();
    this.watching = job.id;
    this.report(job);
    if (job.status === 'pending' || job.status === 'running') this.schedule(job.id);
  }

  private schedule(id: number): void {
    this.timer = setTimeout(() => void this.poll(id), POLL_MS);
  }

  private async poll(id: number): Promise<void> {
    if (this.watching !== id) return;
    try {
      const { data } = await this.host.apiClient.get<Data<GenerationJobView>>(`/generate/${id}`);
      if (this.watching !== id) return;
      this.report(data);
      if (data.status === 'pending' || data.status === 'running') this.schedule(id);
      else this.watching = undefined;
    } catch {
      if (this.watching === id) this.schedule(id);
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watching = undefined;
  }

  hostDisconnected(): void {
    this.stop();
  }
}
