<?php

namespace Http\Discovery;

/**
 * An interface implemented by all discovery related exceptions.
 *
 * @author Tobias Nyholm <tobias.nyholm@gmail.com>
 */
interface Exception extends \Throwable
{
}
