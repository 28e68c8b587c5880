/**
 * @module bench/sizes
 * What the package costs on disk, the two ways it is installed: a user's `npm install --omit=dev`
 * of the packed tarball (the project cold-start.ts installs), and the container image's layers
 * above its base (the image scripts/ci-container.sh builds, read from podman's storage when it is
 * there; building it takes minutes, so the bench never builds it). scripts/install-size.sh makes
 * the same install measurement a CI gate; this puts it in the bench report beside its target.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The image scripts/ci-container.sh builds, and the base it builds on. */
const IMAGE = 'web-data-api-double:ci';
const BASE_IMAGE = 'docker.io/library/node:24-bookworm-slim';
const MB = 1_000_000;

export const SIZE_TARGETS = {
  /** Issue 32: the production install, in MB (1 MB = 1,000,000 bytes, as install-size.sh). */
  installMb: 100,
  /** Issue 32: the image's layers above its base, in MB. */
  imageLayersMb: 120,
} as const;

export interface SizeReport {
  install?: { bytes: number; packages: number };
  /** Absent with the reason when the image is not in podman's storage (or podman is missing). */
  image?: { bytes: number; baseBytes: number } | { missing: string };
}

/** Bytes on disk of a folder, as `du -sb` counts them (apparent sizes, each hard link once). */
function diskBytes(folder: string): number {
  return Number(execFileSync('du', ['-sb', folder], { encoding: 'utf8' }).split('\t')[0]);
}

/** Installed packages: every node_modules/<name> or node_modules/@scope/<name> with a package.json, at any depth. */
function countPackages(modules: string): number {
  let count = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path);
        continue;
      }
      if (existsSync(join(path, 'package.json'))) count += 1;
      if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'));
    }
  };
  visit(modules);
  return count;
}

function podmanSize(image: string): number {
  const out = execFileSync('podman', ['image', 'inspect', '--format', '{{.Size}}', image], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return Number(out.trim());
}

function imageSize(): SizeReport['image'] {
  try {
    return { bytes: podmanSize(IMAGE), baseBytes: podmanSize(BASE_IMAGE) };
  } catch {
    return {
      missing: `no ${IMAGE} image in podman's storage (scripts/ci-container.sh builds it)`,
    };
  }
}

/** Measures the installed project (from cold-start.ts's installPacked) and the image, when present. */
export function measureSizes(installedProject: string | undefined): SizeReport {
  const modules = installedProject && join(installedProject, 'node_modules');
  return {
    install:
      modules && existsSync(modules)
        ? { bytes: diskBytes(modules), packages: countPackages(modules) }
        : undefined,
    image: imageSize(),
  };
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The size targets, each with what was measured (a size not measured is a target not met). */
export function sizeChecks(
  report: SizeReport,
): { target: string; measured: string; ok: boolean }[] {
  const { install, image } = report;
  const layers = image && 'bytes' in image ? image.bytes - image.baseBytes : undefined;
  return [
    {
      target: `production install (\`npm install --omit=dev\` of the packed package) <= ${SIZE_TARGETS.installMb} MB`,
      measured: install
        ? `${mb(install.bytes)}, ${install.packages} packages`
        : 'not measured (no installed copy: --cold-start-rounds 0)',
      ok: install !== undefined && install.bytes <= SIZE_TARGETS.installMb * MB,
    },
    {
      target: `container image: layers above the base <= ${SIZE_TARGETS.imageLayersMb} MB`,
      measured:
        layers !== undefined && image && 'bytes' in image
          ? `${mb(layers)} (image ${mb(image.bytes)}, base ${mb(image.baseBytes)})`
          : `not measured: ${image && 'missing' in image ? image.missing : 'podman missing'}`,
      ok: layers !== undefined && layers <= SIZE_TARGETS.imageLayersMb * MB,
    },
  ];
}
