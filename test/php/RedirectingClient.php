<?php

declare(strict_types=1);

namespace EdgeConvert\Php;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * A PSR-18 client that sends every request for a CloudConvert host (api.cloudconvert.com, api.sandbox.cloudconvert.com,
 * {region}.api.…) to this service's base URL instead, path and query unchanged, the sync API's hosts (sync.api.…) to the
 * same base under /sync, and every other request
 * (the upload forms and export URLs this service hands out) as it is. This is the one change the official PHP SDK
 * needs (README "Other SDKs"): `new CloudConvert(['api_key' => …, 'http_client' => new RedirectingClient(…)])`.
 */
final class RedirectingClient implements ClientInterface
{
    /** @var ClientInterface */
    private $inner;
    /** @var array{scheme: string, host: string, port: ?int} */
    private $base;

    /**
     * @param ClientInterface $inner the client that sends the requests (e.g. Guzzle 7's \GuzzleHttp\Client)
     * @param string          $base  this service's base URL, e.g. http://127.0.0.1:8787 (no path)
     * @throws \InvalidArgumentException when $base has no scheme or host
     */
    public function __construct(ClientInterface $inner, string $base)
    {
        $parts = parse_url($base);
        if (!isset($parts['scheme'], $parts['host'])) {
            throw new \InvalidArgumentException("base URL without scheme or host: $base");
        }
        $this->inner = $inner;
        $this->base = ['scheme' => $parts['scheme'], 'host' => $parts['host'], 'port' => $parts['port'] ?? null];
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        $uri = $request->getUri();
        $host = $uri->getHost();
        if (preg_match('/(^|\.)cloudconvert\.com$/i', $host)) {
            // the sync API (sync.api.…: jobs()->wait, tasks()->wait) is served under /sync on this host
            $sync = preg_match('/(^|\.)sync\.api\.(sandbox\.)?cloudconvert\.com$/i', $host) === 1;
            $uri = $uri->withScheme($this->base['scheme'])->withHost($this->base['host'])->withPort($this->base['port'])
                ->withPath(($sync ? '/sync' : '') . $uri->getPath());
            $request = $request->withUri($uri); // also sets the Host header
        }
        return $this->inner->sendRequest($request);
    }
}
