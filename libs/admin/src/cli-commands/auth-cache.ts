// `auth-cache flush`: the API processes' auth caches.
import type { CommandGroup } from './options';

export const authCacheCommands: CommandGroup = (program, admin, answer) => {
  program
    .command('auth-cache')
    .description("the API processes' auth caches")
    .command('flush')
    .description("empty every API replica's auth cache now (after changing tokens, eshops or origins by SQL)")
    .action(async () => {
      await admin().flushAuthCaches();
      answer({ flushed: true });
    });
};
