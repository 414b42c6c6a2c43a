# Archive::Zip for ExifTool in zeroperl: loads Debian's pure-Perl Archive::Zip 1.68 (vendored at
# /perl5/Archive/Zip.pm) and makes its members share the archive's file handle instead of
# dup()-ing it, which WASI cannot do (members fail with "IO error: Can't open IO::File=GLOB").
# Archive::Zip already shares handles this way for IO::String. Part of edge-convert; same license as Perl.
package Archive::Zip;
my $real = '/perl5/Archive/Zip.pm';
unless (do $real) { die $@ if $@; die "Cannot load $real: $!" }
{
    no strict 'refs';
    no warnings 'redefine';
    my $orig = \&Archive::Zip::_newFileHandle;
    my $shared = sub {
        my ($fd) = @_;
        return (1, $fd) if ref($fd) and Archive::Zip::_ISA($fd, 'IO::Handle');
        goto &$orig;
    };
    # members import _newFileHandle from Archive::Zip: replace every imported copy
    for my $pkg ('Archive::Zip', map { "Archive::Zip::" . substr($_, 0, -2) } grep { /::$/ } keys %Archive::Zip::) {
        *{"${pkg}::_newFileHandle"} = $shared if defined &{"${pkg}::_newFileHandle"};
    }
}
1;
