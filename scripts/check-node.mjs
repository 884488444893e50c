// @ts-check
// First step of `npm start` and `npm run admin`: refuses a Node.js the project does not run on
// (package.json `engines`: 22.12 or newer; Node 24 is what production and CI run), naming the
// fix, instead of starting and failing later in some other way. Plain JavaScript that any Node
// can parse, so even an old one gets the message.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  const command = process.argv[2]
    ? `npm ${process.argv[2] === 'start' ? 'start' : `run ${process.argv[2]}`}`
    : 'npm …';
  process.stderr.write(
    [
      `This is Node.js ${process.versions.node}; the Catalogue Content Service needs Node 24 (or 22.12 and newer).`,
      'Get the pinned Node 24 for this shell (downloaded once into .tools/) and run again:',
      `  . scripts/use-node24.sh && ${command}`,
      `or for this one command:  scripts/use-node24.sh ${command}`,
      '',
    ].join('\n'),
  );
  process.exit(1);
}
