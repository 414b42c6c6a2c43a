<?php

/**
 * PHPUnit bootstrap for the official PHP SDK's integration tests (test/php/README.md): loads the SDK and its
 * dependencies without Composer (Debian's packages under /usr/share/php, the rest from test/php/vendor) and makes
 * php-http/discovery hand the SDK a client that sends CloudConvert's hosts to CC_BASE (RedirectingClient). The SDK's
 * tests build their own `new CloudConvert(['sandbox' => true, …])` and pass no http_client, so discovery is where the
 * host is redirected; nothing of the tests changes.
 *
 * Environment: CC_BASE (this service, e.g. http://127.0.0.1:8787), CC_PHP_TESTS (the directory holding the SDK's
 * tests/, default test/php/cloudconvert-php/tests), CLOUDCONVERT_API_KEY (read by the SDK's own TestCase).
 */

declare(strict_types=1);

// Debian's packages (container/debian-packages.txt, "development and CI only").
foreach ([
    'GuzzleHttp/autoload.php', // php-guzzlehttp-guzzle: the PSR-18 client (pulls in psr7, promises, psr/http-client)
    'GuzzleHttp/Psr7/autoload.php', // php-guzzlehttp-psr7: the PSR-17 factories discovery finds
    'Http/Client/autoload.php', // php-http-httplug
    'Psr/Http/Message/autoload.php', // php-psr-http-message
    'Symfony/Component/OptionsResolver/autoload.php', // php-symfony-options-resolver
] as $file) {
    if (!is_file("/usr/share/php/$file")) {
        fwrite(STDERR, "missing /usr/share/php/$file: install the php-* packages of container/debian-packages.txt\n");
        exit(2);
    }
    require_once "/usr/share/php/$file";
}

// What Debian lacks, vendored unmodified (test/php/vendor/*/LICENSE, commits in test/php/README.md), and the SDK.
$testsDir = getenv('CC_PHP_TESTS') ?: __DIR__ . '/cloudconvert-php/tests';
$psr4 = [
    'Http\\Client\\Common\\' => __DIR__ . '/vendor/php-http-client-common/src/',
    'Http\\Discovery\\' => __DIR__ . '/vendor/php-http-discovery/src/',
    'Http\\Message\\MultipartStream\\' => __DIR__ . '/vendor/php-http-multipart-stream-builder/src/',
    'CloudConvert\\Tests\\' => rtrim($testsDir, '/') . '/',
    'CloudConvert\\' => __DIR__ . '/cloudconvert-php/src/',
    'EdgeConvert\\Php\\' => __DIR__ . '/',
];
spl_autoload_register(static function (string $class) use ($psr4): void {
    if ($class === 'JsonMapper' || strpos($class, 'JsonMapper_') === 0) { // netresearch/jsonmapper is PSR-0
        $file = __DIR__ . '/vendor/netresearch-jsonmapper/src/' . str_replace('_', '/', $class) . '.php';
    } else {
        $file = null;
        foreach ($psr4 as $prefix => $dir) {
            if (strpos($class, $prefix) === 0) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                break;
            }
        }
    }
    if ($file !== null && is_file($file)) {
        require $file;
    }
});

$base = getenv('CC_BASE');
if (!$base) {
    fwrite(STDERR, "CC_BASE (this service's base URL) is not set\n");
    exit(2);
}

/** Discovery strategy: the PSR-18 client is Guzzle behind RedirectingClient; other types fall through. */
final class RedirectingClientStrategy implements \Http\Discovery\Strategy\DiscoveryStrategy
{
    public static function getCandidates($type)
    {
        if ($type !== \Psr\Http\Client\ClientInterface::class) {
            return [];
        }
        return [[
            'class' => static function () {
                return new \EdgeConvert\Php\RedirectingClient(new \GuzzleHttp\Client(), (string) getenv('CC_BASE'));
            },
            'condition' => \GuzzleHttp\Client::class,
        ]];
    }
}
\Http\Discovery\Psr18ClientDiscovery::prependStrategy(RedirectingClientStrategy::class);
